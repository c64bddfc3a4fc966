import { useProjectAudio } from '@/lib/api/project-audio';

/** The project's own recording: PUT/DELETE /api/projects/{id}/voice-over (multipart `voice_over`). */
export const useVoiceOver = (id: number) => useProjectAudio(id, { path: 'voice-over', field: 'voice_over' });
