import type { Project } from '@hookreel/contracts';
import type { AppContext } from '../../context.ts';
import { unprocessable } from '../../errors.ts';
import type { UploadedFile } from '../../uploads/index.ts';
import { storeUploadedAudio } from '../video/index.ts';
import { VOICE_OVER_MESSAGES, VOICE_OVER_RULES } from './voice.ts';

export { VOICE_OVER_MESSAGES } from './voice.ts';
import { replaceProjectFile } from './project-files.ts';
import { getOwnedProject } from './projects.ts';

/** PUT /projects/{id}/voice-over: the owner's recording is checked, stored and becomes the voice. */
export async function setProjectVoiceOver(
  ctx: AppContext,
  userId: number,
  id: number,
  file: UploadedFile | null,
): Promise<Project> {
  const project = await getOwnedProject(ctx, userId, id);
  if (!file || file.fieldname !== 'voice_over') throw unprocessable(VOICE_OVER_MESSAGES.broken);
  const { key, durationSec } = await storeUploadedAudio(ctx, {
    userId,
    area: 'projects',
    buffer: file.buffer,
    rules: VOICE_OVER_RULES,
  });
  return replaceProjectFile(
    ctx,
    userId,
    id,
    { stored: key, replaced: project.voice_over_key },
    { voice_over_key: key, voice_over_duration_sec: durationSec, voice_source: 'own' },
  );
}

/** DELETE /projects/{id}/voice-over: the recording is removed and the generated voice speaks again. */
export async function clearProjectVoiceOver(ctx: AppContext, userId: number, id: number): Promise<Project> {
  const project = await getOwnedProject(ctx, userId, id);
  return replaceProjectFile(
    ctx,
    userId,
    id,
    { stored: null, replaced: project.voice_over_key },
    { voice_over_key: null, voice_over_duration_sec: null, voice_source: 'generated' },
  );
}
