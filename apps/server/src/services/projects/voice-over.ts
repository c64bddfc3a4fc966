import type { Project } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { unprocessable } from '../../errors.ts';
import type { UploadedFile } from '../../uploads/index.ts';
import { storeUploadedAudio } from '../video/index.ts';
import { VOICE_OVER_MESSAGES, VOICE_OVER_RULES } from './voice.ts';

export { VOICE_OVER_MESSAGES } from './voice.ts';
import { replaceProjectFile } from './project-files.ts';
import { getOwnedProject, type ProjectRow } from './projects.ts';

/** PUT /projects/{id}/voice-over: the owner's recording is checked, stored and becomes the voice. */
export async function setProjectVoiceOver(
  ctx: AppContext,
  userId: number,
  id: number,
  file: UploadedFile | null,
): Promise<Project> {
  const project = await getOwnedProject(ctx, userId, id);
  if (!file || file.fieldname !== 'voice_over') throw unprocessable(VOICE_OVER_MESSAGES.broken);
  const recording = await storeUploadedAudio(ctx, {
    userId,
    area: 'projects',
    buffer: file.buffer,
    rules: VOICE_OVER_RULES,
  });
  return switchVoice(ctx, userId, project, recording);
}

/** DELETE /projects/{id}/voice-over: the recording is removed and the generated voice speaks again. */
export async function clearProjectVoiceOver(ctx: AppContext, userId: number, id: number): Promise<Project> {
  return switchVoice(ctx, userId, await getOwnedProject(ctx, userId, id), null);
}

/** Makes `recording` the project's voice (null: the generated voice again), removing the recording it replaces. */
const switchVoice = (
  ctx: AppContext,
  userId: number,
  project: ProjectRow,
  recording: { key: string; durationSec: number } | null,
): Promise<Project> =>
  replaceProjectFile(
    ctx,
    userId,
    project.id,
    { stored: recording?.key ?? null, replaced: project.voice_over_key },
    {
      voice_over_key: recording?.key ?? null,
      voice_over_duration_sec: recording?.durationSec ?? null,
      voice_source: recording ? 'own' : 'generated',
    },
  );
