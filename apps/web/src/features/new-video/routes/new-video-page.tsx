import { ArrowRightIcon, FileSpreadsheetIcon, LayersIcon, PackageIcon, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Page, PageHeader } from '@/components/layout/page';
import { NewProductProjectDialog } from '@/components/new-product-project-dialog';

const CARD =
  'group relative flex flex-col overflow-hidden rounded-2xl border bg-card text-left shadow-sm transition-all outline-none hover:-translate-y-0.5 hover:shadow-lg focus-visible:ring-[3px] focus-visible:ring-ring/50';

/**
 * /new-video: choose the video type. 'Product in hand' opens the product upload dialog (upload → create project →
 * /product-in-hand/{id}/select-actor); 'Hook pack' starts the hook pack wizard (12 videos from one product); 'Batch
 * from CSV' makes one video per spreadsheet row (/batches).
 */
export function NewVideoPage() {
  const [open, setOpen] = useState(false);

  return (
    <Page>
      <PageHeader title="Create New Video" description="Choose the kind of video you want to make." />
      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        <button type="button" onClick={() => setOpen(true)} className={CARD}>
          <div className="relative flex aspect-[4/3] items-center justify-center bg-gradient-to-br from-violet-100 via-fuchsia-50 to-pink-100 dark:from-violet-950 dark:via-fuchsia-950 dark:to-pink-950">
            <div className="flex aspect-[9/16] h-4/5 flex-col items-center justify-end rounded-xl bg-white/70 p-3 shadow-md ring-1 ring-black/5 backdrop-blur dark:bg-white/10">
              <span className="mt-3 mb-auto size-10 rounded-full bg-gradient-to-br from-violet-300 to-pink-300" />
              <span className="flex size-9 items-center justify-center rounded-lg bg-brand-gradient text-white shadow">
                <PackageIcon className="size-5" aria-hidden="true" />
              </span>
            </div>
          </div>
          <CardCaption title="Product in hand" text="An AI actor holds and presents your product." />
        </button>
        <Link to="/hook-packs/new" className={CARD}>
          <div className="relative flex aspect-[4/3] items-center justify-center gap-2 bg-gradient-to-br from-sky-100 via-indigo-50 to-violet-100 dark:from-sky-950 dark:via-indigo-950 dark:to-violet-950">
            {[0, 1, 2].map((i) => (
              <div
                key={i}
                className="flex aspect-[9/16] h-3/5 flex-col items-center justify-end rounded-lg bg-white/70 p-2 shadow-md ring-1 ring-black/5 backdrop-blur odd:translate-y-2 dark:bg-white/10"
              >
                <span className="mt-2 mb-auto size-6 rounded-full bg-gradient-to-br from-sky-300 to-violet-300" />
                <span className="h-1.5 w-3/4 rounded-full bg-violet-300/70" />
              </div>
            ))}
          </div>
          <CardCaption
            icon={LayersIcon}
            title="Hook pack"
            text="12 short hook videos for one product, ready to test."
          />
        </Link>
        <Link to="/batches" className={CARD}>
          <div className="relative flex aspect-[4/3] items-center justify-center bg-gradient-to-br from-emerald-100 via-teal-50 to-sky-100 dark:from-emerald-950 dark:via-teal-950 dark:to-sky-950">
            <div className="grid w-3/4 grid-cols-4 gap-1 rounded-xl bg-white/70 p-3 shadow-md ring-1 ring-black/5 backdrop-blur dark:bg-white/10">
              {Array.from({ length: 16 }, (_, i) => (
                <span
                  key={i}
                  className={i < 4 ? 'h-2.5 rounded-sm bg-emerald-400/70' : 'h-2.5 rounded-sm bg-emerald-200/80'}
                />
              ))}
            </div>
          </div>
          <CardCaption
            icon={FileSpreadsheetIcon}
            title="Batch from CSV"
            text="One video per spreadsheet row: actor, hook, script, CTA."
          />
        </Link>
      </div>
      <NewProductProjectDialog open={open} onOpenChange={setOpen} />
    </Page>
  );
}

/** A card's name (after its icon, if any) and what it makes, with the arrow that moves as the card is hovered. */
function CardCaption({ icon: Icon, title, text }: { icon?: LucideIcon; title: string; text: string }) {
  return (
    <div className="flex items-center justify-between gap-3 p-5">
      <div>
        {Icon ? (
          <h2 className="flex items-center gap-2 font-semibold">
            <Icon className="size-4 text-primary" aria-hidden="true" /> {title}
          </h2>
        ) : (
          <h2 className="font-semibold">{title}</h2>
        )}
        <p className="text-sm text-muted-foreground">{text}</p>
      </div>
      <ArrowRightIcon
        className="size-5 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-1 group-hover:text-primary"
        aria-hidden="true"
      />
    </div>
  );
}
