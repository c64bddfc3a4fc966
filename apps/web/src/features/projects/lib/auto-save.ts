import type { Project, UpdateProjectRequest } from '@hookreel/contracts';

export type Editable = Pick<Project, 'script' | 'language' | 'accent'>;

/** The fields that differ from the stored project (empty when nothing changed). */
export function changedFields(stored: Editable, draft: Editable): UpdateProjectRequest {
  const patch: UpdateProjectRequest = {};
  if (draft.script !== stored.script) patch.script = draft.script;
  if (draft.language !== stored.language) patch.language = draft.language;
  if (draft.accent !== stored.accent) patch.accent = draft.accent;
  return patch;
}
