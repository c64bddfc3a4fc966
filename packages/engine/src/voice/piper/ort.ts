import { createRequire } from 'node:module';
import type * as Ort from 'onnxruntime-common';

/**
 * onnxruntime-node, typed by onnxruntime-common (whose API it re-exports): version 1.17 ships its JavaScript
 * without declarations, so it is required here and given the common package's types.
 */
export const ort = createRequire(import.meta.url)('onnxruntime-node') as typeof Ort;
export type InferenceSession = Ort.InferenceSession;
export type Tensor = Ort.Tensor;
