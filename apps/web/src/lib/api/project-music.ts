import { useProjectAudio } from './project-audio';

/** The project's music bed: PUT/DELETE /api/projects/{id}/music (multipart `music`). */
export const useProjectMusic = (id: number) => useProjectAudio(id, { path: 'music', field: 'music' });
