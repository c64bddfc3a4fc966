/**
 * The jobs area: the one door for "rows + job + hold" (createJob, submitJobs), reading jobs for the screens, and
 * the time estimates. Other areas import it only through this file.
 */
export { createJob, newBatchId, submitJobs, type NewJob } from './create.ts';
export { measureThroughput, publicStats, remainingSeconds, type EstimateSnapshot } from './estimates.ts';
export { renderQualityOf, upgradeOf } from './payloads.ts';
export {
  deleteJob,
  downloadName,
  findStreamedJobDto,
  getJob,
  listJobs,
  packUpgradesUnderway,
  toJobDto,
  withEstimates,
} from './read.ts';
