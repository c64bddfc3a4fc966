import type { Project } from '@hookreel/contracts';
import { ExternalLinkIcon, ImageOffIcon, Trash2Icon } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import {
  ContextMenu,
  ContextMenuContent,
  ContextMenuItem,
  ContextMenuSeparator,
  ContextMenuTrigger,
} from '@/components/ui/context-menu';
import { staticUrl } from '@/lib/urls';

/**
 * A project card linking to /product-in-hand/{id}/select-actor. Right-click (or a 700 ms long-press on touch,
 * which Radix's ContextMenu does natively) opens Open / Delete.
 */
export function ProjectCard({ project, onDelete }: { project: Project; onDelete: (p: Project) => void }) {
  const navigate = useNavigate();
  const href = `/product-in-hand/${project.id}/select-actor`;
  const image = staticUrl(project.file_path);
  return (
    <ContextMenu>
      <ContextMenuTrigger asChild>
        <Link
          to={href}
          data-testid="project-card"
          className="group flex touch-manipulation flex-col overflow-hidden rounded-xl border bg-card shadow-sm transition-all outline-none select-none hover:-translate-y-0.5 hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50 [-webkit-touch-callout:none]"
        >
          <div className="relative aspect-square bg-muted">
            {image ? (
              <img
                src={image}
                alt={project.name}
                loading="lazy"
                draggable={false}
                className="absolute inset-0 size-full object-contain p-2"
              />
            ) : (
              <span className="absolute inset-0 flex flex-col items-center justify-center gap-1 text-sm text-muted-foreground">
                <ImageOffIcon className="size-6" aria-hidden="true" />
                No image
              </span>
            )}
          </div>
          <div className="p-3">
            <h3 className="truncate text-sm font-semibold" title={project.name}>
              {project.name}
            </h3>
            <p className="text-xs text-muted-foreground">{new Date(project.created_at).toLocaleDateString()}</p>
          </div>
        </Link>
      </ContextMenuTrigger>
      <ContextMenuContent>
        <ContextMenuItem onSelect={() => navigate(href)}>
          <ExternalLinkIcon aria-hidden="true" /> Open
        </ContextMenuItem>
        <ContextMenuSeparator />
        <ContextMenuItem variant="destructive" onSelect={() => onDelete(project)}>
          <Trash2Icon aria-hidden="true" /> Delete
        </ContextMenuItem>
      </ContextMenuContent>
    </ContextMenu>
  );
}
