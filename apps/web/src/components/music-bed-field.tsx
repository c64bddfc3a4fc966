import { MUSIC_LIMITS } from '@hookreel/contracts';
import { MusicIcon } from 'lucide-react';
import { toast } from 'sonner';
import { AudioFileButtons, type AudioFileMutations } from '@/components/audio-file-buttons';
import { errorDetail } from '@/lib/api-client';
import { musicFileProblem } from '@/lib/audio-file';
import { staticUrl } from '@/lib/urls';

const maxMb = MUSIC_LIMITS.maxBytes / 1024 / 1024;

/**
 * The optional music bed of a project or hook pack: a track the user uploads, played under the voice (looped or
 * trimmed to the video, ducked while the voice speaks). None by default. Size and type are checked here before
 * sending; the server checks the bytes again, reads the file with ffprobe and caps its length.
 */
export function MusicBedField({
  musicUrl,
  music,
  disabled,
}: {
  musicUrl: string | null;
  music: AudioFileMutations;
  disabled?: boolean;
}) {
  const busy = music.upload.isPending || music.remove.isPending;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    const problem = await musicFileProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    try {
      await music.upload.mutateAsync(file);
      toast.success('Music bed saved: it plays under the voice in the next videos');
    } catch (e) {
      toast.error(errorDetail(e, 'The music could not be uploaded'));
    }
  };

  return (
    <fieldset className="min-w-0 space-y-3" disabled={disabled} data-testid="music-bed-field">
      <legend className="mb-2 text-sm leading-none font-medium">Music bed</legend>
      {musicUrl ? (
        <div className="flex flex-wrap items-center gap-3">
          <MusicIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <audio
            controls
            preload="metadata"
            src={staticUrl(musicUrl)}
            className="h-10 max-w-full min-w-0 flex-1"
            data-testid="music-bed-player"
            aria-label="Music bed"
          />
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">No music: the videos have the voice only.</p>
      )}
      <AudioFileButtons
        noun="music"
        accept={MUSIC_LIMITS.accept}
        present={Boolean(musicUrl)}
        uploading={music.upload.isPending}
        uploadDisabled={busy}
        removeDisabled={busy}
        onFile={(file) => void pick(file)}
        onRemove={() =>
          void music.remove.mutateAsync().then(
            () => toast.success('Music removed: the videos have the voice only'),
            (e: unknown) => toast.error(errorDetail(e, 'The music could not be removed')),
          )
        }
      />
      <p className="text-xs text-muted-foreground">
        {`Optional. MP3, WAV or M4A you have the rights to, up to ${maxMb}MB and ${MUSIC_LIMITS.maxDurationSec / 60} ` +
          'minutes. It is looped or trimmed to each video and turned down while the voice speaks.'}
      </p>
    </fieldset>
  );
}
