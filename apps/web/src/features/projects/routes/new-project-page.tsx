import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, ProjectName } from '@hookreel/contracts';
import { FileIcon, XIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { FormError } from '@/components/form-error';
import { errorDetail } from '@/lib/api-client';
import { z } from 'zod';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useCreateProject } from '@/lib/api/create-project';

export const NewProjectForm = z.object({ name: ProjectName });
type NewProjectForm = z.input<typeof NewProjectForm>;

export const formatKb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;

/** /projects/new: 'Create New Project'. */
export function NewProjectPage() {
  const navigate = useNavigate();
  const create = useCreateProject();
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useForm<NewProjectForm, unknown, z.output<typeof NewProjectForm>>({
    resolver: zodResolver(NewProjectForm),
    defaultValues: { name: '' },
    mode: 'onTouched',
  });
  const nameError = form.formState.errors.name?.message;

  const onSubmit = form.handleSubmit((values) =>
    create.mutateAsync({ name: values.name, file }).then(
      (id) => {
        toast.success(MESSAGES.projects.created);
        navigate(`/projects/${id}`);
      },
      (e) => toast.error(errorDetail(e, MESSAGES.projects.createFailed)),
    ),
  );

  const clearFile = () => {
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  return (
    <Page className="max-w-2xl">
      <PageHeader title="Create New Project" description="Name your project and optionally attach a reference file." />
      <Card>
        <CardContent>
          <form onSubmit={onSubmit} noValidate className="space-y-6">
            <div className="space-y-2">
              <Label htmlFor="project-name">Name</Label>
              <Input
                id="project-name"
                placeholder="My product launch"
                autoComplete="off"
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? 'project-name-error' : undefined}
                {...form.register('name')}
              />
              <FormError id="project-name-error">{nameError}</FormError>
            </div>
            <div className="space-y-2">
              <Label htmlFor="project-file">Reference File (optional)</Label>
              <Input
                id="project-file"
                ref={fileInput}
                type="file"
                // The server keeps an image as the project's reference (it is shown as the project's picture).
                accept="image/png,image/jpeg,image/webp,image/*"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
              {file ? (
                <div
                  className="flex items-center justify-between gap-3 rounded-md border bg-muted/40 px-3 py-2 text-sm"
                  data-testid="selected-file"
                >
                  <span className="flex min-w-0 items-center gap-2">
                    <FileIcon className="size-4 shrink-0" aria-hidden="true" />
                    <span className="truncate">{file.name}</span>
                    <span className="shrink-0 text-muted-foreground">{formatKb(file.size)}</span>
                  </span>
                  <Button type="button" size="sm" variant="ghost" onClick={clearFile}>
                    <XIcon aria-hidden="true" /> Clear
                  </Button>
                </div>
              ) : null}
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="outline" onClick={() => navigate('/projects')}>
                Cancel
              </Button>
              <Button type="submit" variant="brand" disabled={form.formState.isSubmitting}>
                {form.formState.isSubmitting ? 'Creating...' : 'Create Project'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </Page>
  );
}
