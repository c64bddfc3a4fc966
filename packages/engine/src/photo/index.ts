export { analyzePortrait, judgePortrait, descriptorSimilarity, faceLength, PORTRAIT_LIMITS } from './analyze.ts';
export type { PortraitAnalysis } from './analyze.ts';
export {
  detectImage,
  detectFrames,
  faceDetectorPid,
  warmFaceDetector,
  stopFaceDetector,
  endFaceDetector,
} from './face-worker.ts';
export type { RawFace, RawImage } from './face-worker.ts';
export { MESH, MESH_POINTS, boxOf, eyesOpenness, mouthOpenness } from './landmarks.ts';
export type { Box, Point3 } from './landmarks.ts';
