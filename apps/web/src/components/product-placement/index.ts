export { PlacementEditor, type PlacementEditorProps } from './placement-editor';
export * from './placement';
export { useImage, type ImageState } from './use-image';
