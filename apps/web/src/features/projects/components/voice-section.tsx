import {
  VOICE_OVER_LIMITS,
  VOICE_SOURCES,
  VOICE_SOURCE_LABELS,
  type Project,
  type VoiceSource,
} from '@hookreel/contracts';
import { type ReactNode } from 'react';
import { toast } from 'sonner';
import { RadioCards } from '@/components/radio-card';
import { AudioFileButtons } from '@/components/audio-file-buttons';
import { errorDetail } from '@/lib/api-client';
import { staticUrl } from '@/lib/urls';

const HINTS: Record<VoiceSource, string> = {
  generated: 'Spoken for you in the language and accent above.',
  own: 'Your own take, read aloud and uploaded (MP3, WAV or M4A).',
};

/** 0:07, 1:42: how long the recording is, in whole seconds as the browser's player shows it. */
export const formatDuration = (sec: number): string => {
  const s = Math.max(0, Math.floor(sec));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

const maxMb = VOICE_OVER_LIMITS.maxBytes / 1024 / 1024;

/**
 * Who speaks the script: the generated voice (its settings are `generatedSettings`) or the user's own recording,
 * uploaded here, with a player and its length. Choosing "own" before there is a recording only opens the upload;
 * the server switches the voice once the recording is stored. The server checks type, size and length again.
 */
export function VoiceSection({
  project,
  value,
  onChange,
  onUpload,
  onRemove,
  uploading,
  removing,
  generatedSettings,
}: {
  project: Pick<Project, 'voice_over'>;
  value: VoiceSource;
  onChange: (source: VoiceSource) => void;
  onUpload: (file: File) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
  uploading: boolean;
  removing: boolean;
  generatedSettings: ReactNode;
}) {
  const recording = project.voice_over;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > VOICE_OVER_LIMITS.maxBytes) {
      toast.error(`Recordings can be at most ${maxMb}MB`);
      return;
    }
    if (!/\.(mp3|wav|m4a)$/i.test(file.name) && !/^audio\//.test(file.type)) {
      toast.error('The recording must be an MP3, WAV or M4A file');
      return;
    }
    try {
      await onUpload(file);
      toast.success('Your recording is now the voice');
    } catch (e) {
      toast.error(errorDetail(e, 'The recording could not be uploaded'));
    }
  };

  return (
    <fieldset className="min-w-0 space-y-3" data-testid="voice-section">
      <legend className="mb-2 text-sm leading-none font-medium">Voice</legend>
      <RadioCards
        className="grid gap-3 sm:grid-cols-2"
        options={VOICE_SOURCES}
        value={value}
        onChange={onChange}
        face={(source) => ({ title: VOICE_SOURCE_LABELS[source], hint: HINTS[source] })}
      />

      {value === 'generated' ? (
        generatedSettings
      ) : (
        <div className="space-y-3 rounded-lg border border-dashed p-3">
          {recording ? (
            <div className="flex flex-wrap items-center gap-3">
              <audio
                controls
                preload="metadata"
                src={staticUrl(recording.url)}
                className="h-10 max-w-full min-w-0 flex-1"
                data-testid="voice-over-player"
                aria-label="Your recording"
              />
              <span className="text-sm text-muted-foreground tabular-nums" data-testid="voice-over-duration">
                Length {formatDuration(recording.duration_sec)}
              </span>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">
              No recording yet: the generated voice speaks until you add one.
            </p>
          )}
          <AudioFileButtons
            noun="recording"
            accept={VOICE_OVER_LIMITS.accept}
            present={Boolean(recording)}
            uploading={uploading}
            uploadDisabled={uploading}
            removeDisabled={removing || uploading}
            onFile={(file) => void pick(file)}
            onRemove={() =>
              void onRemove().then(
                () => toast.success('Recording removed: the generated voice speaks again'),
                (e: unknown) => toast.error(errorDetail(e, 'The recording could not be removed')),
              )
            }
          />
          <p className="text-xs text-muted-foreground">
            {`MP3, WAV or M4A, up to ${maxMb}MB and ${VOICE_OVER_LIMITS.maxDurationSec / 60} minutes. Captions and the ` +
              'mouth follow your words, and the video lasts as long as your recording. Speed does not apply.'}
          </p>
        </div>
      )}
    </fieldset>
  );
}
