import { BATCH_LIMITS, BATCH_COLUMNS, creditsLabel } from '@hookreel/contracts';
import { DownloadIcon, FileSpreadsheetIcon, ImageIcon, Loader2Icon, UploadIcon, XIcon } from 'lucide-react';
import { type ChangeEvent, type DragEvent, type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorDetail } from '@/lib/api-client';
import { usePriceList } from '@/lib/api/render-quality';
import { cn } from '@/lib/utils';
import { batchTemplateUrl, useBatches, useCreateBatch } from '../api/batches';

const isSheet = (f: File) => /\.(csv|tsv|txt)$/i.test(f.name) || f.type === 'text/csv' || f.type === 'text/plain';
const isImage = (f: File) => /^image\/(png|jpeg|webp)$/.test(f.type) || /\.(png|jpe?g|webp)$/i.test(f.name);

/**
 * /batches: a batch from a spreadsheet. Drop (or choose) the CSV and the product images it names, or paste rows;
 * "Check rows" sends them to the server, which answers every row with its errors and the price before anything is
 * spent (the review is /batches/{id}).
 */
export function BatchesPage() {
  const navigate = useNavigate();
  const create = useCreateBatch();
  const batches = useBatches();
  const priceList = usePriceList();
  const [name, setName] = useState('');
  const [csv, setCsv] = useState('');
  const [sheetName, setSheetName] = useState<string | null>(null);
  const [products, setProducts] = useState<File[]>([]);
  const [dragOver, setDragOver] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const addFiles = async (files: File[]) => {
    const sheet = files.find(isSheet);
    if (sheet) {
      setCsv(await sheet.text());
      setSheetName(sheet.name);
      if (!name) setName(sheet.name.replace(/\.[^.]+$/, ''));
    }
    const images = files.filter(isImage);
    const ignored = files.filter((f) => !isSheet(f) && !isImage(f));
    if (ignored.length) toast.error(`Not a CSV or a PNG, JPG or WEBP image: ${ignored.map((f) => f.name).join(', ')}`);
    if (images.length) {
      setProducts((prev) => {
        const byName = new Map(prev.map((f) => [f.name.toLowerCase(), f]));
        for (const f of images) byName.set(f.name.toLowerCase(), f);
        const next = [...byName.values()];
        if (next.length > BATCH_LIMITS.productFilesMax) {
          toast.error(`Attach at most ${BATCH_LIMITS.productFilesMax} product images to one batch.`);
        }
        return next.slice(0, BATCH_LIMITS.productFilesMax);
      });
    }
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragOver(false);
    void addFiles([...(e.dataTransfer.files ?? [])]);
  };
  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    void addFiles([...(e.target.files ?? [])]);
    e.target.value = '';
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name, csv, products },
      {
        onSuccess: (batch) => navigate(`/batches/${batch.id}`),
        onError: (err) => toast.error(errorDetail(err, 'The sheet could not be checked.')),
      },
    );
  };

  return (
    <Page>
      <PageHeader
        title="Batch from CSV"
        description={`One line per video, up to ${BATCH_LIMITS.rowsMax} rows. You see every row and the price before anything is spent.`}
        actions={
          <Button asChild variant="outline">
            <a href={batchTemplateUrl} download="hookreel-batch-template.csv">
              <DownloadIcon aria-hidden="true" /> Download template
            </a>
          </Button>
        }
      />
      <form onSubmit={onSubmit} className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="space-y-4">
          <div
            data-testid="batch-drop-zone"
            onDragOver={(e) => {
              e.preventDefault();
              setDragOver(true);
            }}
            onDragLeave={() => setDragOver(false)}
            onDrop={onDrop}
            className={cn(
              'flex flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed bg-card p-8 text-center transition-colors',
              dragOver ? 'border-primary bg-primary/5' : 'border-border',
            )}
          >
            <span className="flex size-12 items-center justify-center rounded-full bg-brand-gradient text-white shadow">
              <FileSpreadsheetIcon className="size-6" aria-hidden="true" />
            </span>
            <div>
              <p className="font-medium">Drop your CSV and product images here</p>
              <p className="text-sm text-muted-foreground">
                CSV with the template’s columns; PNG, JPG or WEBP images named in the product column (up to{' '}
                {BATCH_LIMITS.productFilesMax}, 10 MB each).
              </p>
            </div>
            <Button type="button" variant="secondary" onClick={() => inputRef.current?.click()}>
              <UploadIcon aria-hidden="true" /> Choose files
            </Button>
            <input
              ref={inputRef}
              type="file"
              multiple
              hidden
              data-testid="batch-file-input"
              accept=".csv,.tsv,.txt,text/csv,image/png,image/jpeg,image/webp"
              onChange={onPick}
            />
            {sheetName ? (
              <p className="text-sm" data-testid="batch-sheet-name">
                Sheet: <span className="font-medium">{sheetName}</span>
              </p>
            ) : null}
          </div>
          {products.length > 0 ? (
            <ul aria-label="Product images" className="flex flex-wrap gap-2">
              {products.map((f) => (
                <li
                  key={f.name}
                  className="flex items-center gap-1.5 rounded-full border bg-card py-1 pr-1 pl-3 text-sm shadow-xs"
                >
                  <ImageIcon className="size-3.5 text-muted-foreground" aria-hidden="true" />
                  {f.name}
                  <Button
                    type="button"
                    size="icon"
                    variant="ghost"
                    className="size-6 rounded-full"
                    aria-label={`Remove ${f.name}`}
                    onClick={() => setProducts((p) => p.filter((x) => x !== f))}
                  >
                    <XIcon className="size-3.5" aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="space-y-2">
            <Label htmlFor="batch-name">Batch name</Label>
            <Input
              id="batch-name"
              value={name}
              maxLength={BATCH_LIMITS.nameMax}
              placeholder="Spring serum tests"
              onChange={(e) => setName(e.target.value)}
            />
          </div>
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="batch-csv">Or paste rows</Label>
          <Textarea
            id="batch-csv"
            value={csv}
            onChange={(e) => setCsv(e.target.value)}
            spellCheck={false}
            placeholder={`${BATCH_COLUMNS.join(',')}\nhttps://example.com/serum.png,Actor 1,Stop scrolling,This serum changed my mornings.,Shop now,english,american,9:16,highlight,Ryan`}
            className="min-h-56 flex-1 font-mono text-xs"
          />
          <p className="text-xs text-muted-foreground">
            Columns: {BATCH_COLUMNS.join(', ')}. Empty cells take the defaults (Actor 1, English, American, 9:16, word
            highlight, no end card, the best voice for the actor). A voice is named as the voice picker shows it
            (&ldquo;Ryan&rdquo;) or by its id.{' '}
            {/* The per-video price is the server's: no figure until it has answered. */}
            <span data-testid="batch-video-price" aria-busy={priceList.isPending}>
              {priceList.data
                ? `Each video costs ${creditsLabel(priceList.data.prices.video)}.`
                : priceList.isError
                  ? 'The price of each row shows when you check them.'
                  : 'Loading the price per video…'}
            </span>
          </p>
          <div className="mt-2 flex justify-end">
            <Button type="submit" variant="brand" size="lg" disabled={!csv.trim() || create.isPending}>
              {create.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
              Check rows
            </Button>
          </div>
        </div>
      </form>

      <section aria-labelledby="recent-batches" className="mt-12">
        <h2 id="recent-batches" className="mb-3 text-lg font-semibold">
          Your batches
        </h2>
        {batches.data && batches.data.length > 0 ? (
          <ul className="divide-y rounded-xl border bg-card">
            {batches.data.map((b) => (
              <li key={b.id}>
                <Link
                  to={`/batches/${b.id}`}
                  className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 hover:bg-accent"
                >
                  <span className="font-medium">{b.name}</span>
                  <span className="text-sm text-muted-foreground">
                    {b.status === 'draft'
                      ? `Not queued · ${b.valid_rows} valid rows`
                      : `${b.progress.completed} of ${b.valid_rows} done · ${b.progress.percent}%`}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No batches yet.</p>
        )}
      </section>
    </Page>
  );
}
