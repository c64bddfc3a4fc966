import { MUSIC_LIMITS } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { sniffAudio } from '@/lib/audio-file';
import { renderWithProviders } from '@/test/render';
import { MusicBedField } from './music-bed-field';
import { spyOnToasts } from '../test/toasts';

spyOnToasts();

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const WAV = bytes('RIFF', [36, 0, 0, 0], 'WAVEfmt ', [16, 0, 0, 0]);
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

function setup(musicUrl: string | null = null) {
  const onUpload = vi.fn(async (_file: File) => {});
  const onRemove = vi.fn(async () => {});
  const music = {
    upload: { mutateAsync: onUpload, isPending: false },
    remove: { mutateAsync: onRemove, isPending: false },
  };
  renderWithProviders(<MusicBedField musicUrl={musicUrl} music={music} />);
  return { onUpload, onRemove };
}

describe('sniffAudio', () => {
  it('knows MP3 (ID3 or frame sync), WAV and M4A by their first bytes, like the server', () => {
    expect(sniffAudio(bytes('ID3', [4, 0, 0]))).toBe('mp3');
    expect(sniffAudio(bytes([0xff, 0xfb, 0x90, 0x64]))).toBe('mp3');
    expect(sniffAudio(WAV)).toBe('wav');
    expect(sniffAudio(bytes([0, 0, 0, 32], 'ftypM4A '))).toBe('m4a');
    expect(sniffAudio(PNG)).toBeNull();
    expect(sniffAudio(bytes('RIFF', [0, 0, 0, 0], 'WEBP'))).toBeNull();
  });
});

describe('MusicBedField', () => {
  it('offers an upload when there is no music, and sends a WAV it picks', async () => {
    const { onUpload } = setup();
    expect(screen.getByText(/No music/)).toBeInTheDocument();
    expect(screen.getByText(/MP3, WAV or M4A .* up to 20MB/)).toBeInTheDocument();
    const input = screen.getByLabelText('Upload music');
    expect(input).toHaveAttribute('accept', MUSIC_LIMITS.accept);
    const file = new File([WAV], 'bed.wav', { type: 'audio/wav' });
    await userEvent.upload(input, file);
    await waitFor(() => expect(onUpload).toHaveBeenCalledWith(file));
    expect(toast.success).toHaveBeenCalled();
  });

  it('refuses a file that is not audio, or over 20MB, before sending it', async () => {
    const { onUpload } = setup();
    const input = screen.getByLabelText('Upload music');
    // Named like music, but a PNG inside: the first bytes decide.
    await userEvent.upload(input, new File([PNG], 'song.mp3', { type: 'audio/mpeg' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Music must be an MP3, WAV or M4A file'));
    const huge = new File([WAV, new Uint8Array(MUSIC_LIMITS.maxBytes)], 'long.wav', { type: 'audio/wav' });
    await userEvent.upload(input, huge);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Music files can be at most 20MB'));
    expect(onUpload).not.toHaveBeenCalled();
  });

  it('plays the stored music and removes it', async () => {
    const { onRemove } = setup('static/users/1/projects/music-abc.m4a');
    const player = screen.getByTestId('music-bed-player');
    expect(player.getAttribute('src')).toMatch(/static\/users\/1\/projects\/music-abc\.m4a$/);
    expect(screen.getByLabelText('Replace music')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove music' }));
    await waitFor(() => expect(onRemove).toHaveBeenCalledTimes(1));
  });
});
