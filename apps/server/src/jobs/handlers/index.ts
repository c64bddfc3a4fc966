import { JOB_NAMES, type JobHandlerMap } from '../registry.ts';
import { mergeCharacter } from './merge-character.ts';
import { renderProjectVideo } from './render-project-video.ts';
import { generateHookCharacters } from './hook-generate-characters.ts';
import { generateHookPreview } from './hook-generate-preview.ts';
import { processHookProduct } from './hook-process-product.ts';
import { renderHookVideo } from './hook-render-video.ts';

/**
 * Exactly one handler per job name (the type requires every name; createJobQueue checks it again at boot).
 * A feature area adds its handler file beside these and points its name at it here.
 */
export const JOB_HANDLERS: JobHandlerMap = {
  [JOB_NAMES.renderProjectVideo]: renderProjectVideo,
  [JOB_NAMES.mergeCharacter]: mergeCharacter,
  [JOB_NAMES.generateCharacters]: generateHookCharacters,
  [JOB_NAMES.generatePreview]: generateHookPreview,
  [JOB_NAMES.renderHookVideo]: renderHookVideo,
  [JOB_NAMES.processProduct]: processHookProduct,
};
