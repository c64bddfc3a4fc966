import { MESSAGES } from '@hookreel/contracts';
import { BellIcon, Loader2Icon, MailIcon, TriangleAlertIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Page, PageHeader } from '@/components/layout/page';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useAuth } from '@/lib/auth';
import { useDeleteAccount } from '../api/delete-account';
import { useUpdateNotify } from '@/lib/api/update-notify';
import { ApiKeysCard } from '../components/api-keys-card';
import { BrandKitCard } from '../components/brand-kit-card';
import { WebhooksCard } from '../components/webhooks-card';

export function SettingsPage() {
  const { user, logout } = useAuth();
  const emailId = useId();
  const notifyId = useId();
  const serverNotify = Boolean(user?.notify);
  const [notify, setNotify] = useState(serverNotify);
  // Follow the user's stored preference when it changes elsewhere (e.g. 'Notify Me' on the jobs screen).
  const [lastServerNotify, setLastServerNotify] = useState(serverNotify);
  if (lastServerNotify !== serverNotify) {
    setLastServerNotify(serverNotify);
    setNotify(serverNotify);
  }
  const updateNotify = useUpdateNotify();
  const deleteAccount = useDeleteAccount();
  const [confirmOpen, setConfirmOpen] = useState(false);

  const onNotifyChange = (checked: boolean) => {
    const previous = notify;
    setNotify(checked);
    updateNotify.mutate(checked, {
      onSuccess: (saved) => {
        setNotify(saved);
        toast.success(saved ? MESSAGES.notifications.enabled : MESSAGES.notifications.disabled);
      },
      onError: () => {
        setNotify(previous);
        toast.error(MESSAGES.notifications.updateFailed);
      },
    });
  };

  const onDelete = () => {
    deleteAccount.mutate(undefined, {
      onSuccess: async () => {
        setConfirmOpen(false);
        await logout({ silent: true });
      },
      onError: () => {
        toast.error(MESSAGES.account.deleteFailed);
      },
    });
  };

  return (
    <Page className="max-w-3xl">
      <PageHeader title="Settings" description="Manage your profile and account." />

      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle>Profile</CardTitle>
            <CardDescription>
              Signed in with Google as <span className="font-medium text-foreground">{user?.email ?? 'User'}</span>
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-2">
            <Label htmlFor={emailId}>Email</Label>
            <div className="relative">
              <MailIcon
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
                aria-hidden="true"
              />
              <Input id={emailId} value={user?.email ?? ''} readOnly className="bg-muted/50 pl-9" />
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Notifications</CardTitle>
            <CardDescription>Choose how we keep you posted.</CardDescription>
          </CardHeader>
          <CardContent>
            <div className="flex items-center justify-between gap-4 rounded-lg border p-4">
              <div className="flex items-start gap-3">
                <BellIcon className="mt-0.5 size-5 text-muted-foreground" aria-hidden="true" />
                <div className="space-y-1">
                  <Label htmlFor={notifyId}>Email Notifications</Label>
                  <p className="text-sm text-muted-foreground">Get an e-mail when your videos are ready.</p>
                </div>
              </div>
              <Switch
                id={notifyId}
                checked={notify}
                onCheckedChange={onNotifyChange}
                disabled={updateNotify.isPending || !user}
              />
            </div>
          </CardContent>
        </Card>

        <BrandKitCard />

        <ApiKeysCard />

        <WebhooksCard />

        <Card className="border-destructive/40">
          <CardHeader>
            <CardTitle className="flex items-center gap-2 text-destructive">
              <TriangleAlertIcon className="size-5" aria-hidden="true" />
              Danger Zone
            </CardTitle>
            <CardDescription>
              Deleting your account removes your projects, videos and credits. This cannot be undone.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <AlertDialog open={confirmOpen} onOpenChange={(open) => !deleteAccount.isPending && setConfirmOpen(open)}>
              <AlertDialogTrigger asChild>
                <Button variant="destructive">Delete Account</Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>Delete your account?</AlertDialogTitle>
                  <AlertDialogDescription>
                    This permanently deletes your account and all of its data. You will be signed out.
                  </AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel disabled={deleteAccount.isPending}>Cancel</AlertDialogCancel>
                  <Button variant="destructive" onClick={onDelete} disabled={deleteAccount.isPending}>
                    {deleteAccount.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
                    Delete Account
                  </Button>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </CardContent>
        </Card>
      </div>
    </Page>
  );
}
