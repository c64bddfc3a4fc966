import { capitalise, type Accent, type Language, type Voice } from '@hookreel/contracts';
import { CheckIcon, LoaderCircleIcon, PlayIcon, SquareIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { useVoices, voiceSampleSrc } from '@/lib/api/voices';
import { cn } from '@/lib/utils';

/** The voices of one language, those of the chosen accent first, each group in the server's best-first order. */
export function voicesFor(voices: readonly Voice[], language: Language, accent: Accent): Voice[] {
  const ofLanguage = voices.filter((v) => v.language === language);
  return [...ofLanguage.filter((v) => v.accent === accent), ...ofLanguage.filter((v) => v.accent !== accent)];
}

const ENGINE_NAMES: Record<Voice['engine'], string> = {
  piper: 'neural (Piper)',
  flite: 'flite',
  festival: 'festival',
  espeak: 'eSpeak-NG',
};

/**
 * How a listener names a voice's accent: the catalogue files Latin American Spanish and Brazilian Portuguese under
 * "american", and a language's reference accent under "neutral".
 */
export function accentName(language: Language, accent: Accent): string {
  if (accent === 'american' && language === 'spanish') return 'Latin American';
  if (accent === 'american' && language === 'portuguese') return 'Brazilian';
  if (accent === 'neutral') return language === 'spanish' || language === 'portuguese' ? 'European' : 'Standard';
  return capitalise(accent);
}

/** "Ryan (US English, flite)" → "Ryan": the meta line says the rest. */
const shortName = (label: string): string => label.replace(/\s*\(.*\)\s*$/, '') || label;

type SampleState = { id: string; phase: 'loading' | 'playing' } | null;

/**
 * Who speaks the generated voice: "Automatic" (the best voice for the language, accent and the actor's gender) or
 * one voice of the language, each with a short sample that plays before anything is spent. One sample plays at a
 * time; native radios keep arrow keys and screen readers working, the play buttons sit beside them.
 */
export function VoicePicker({
  language,
  accent,
  value,
  onChange,
  disabled,
}: {
  language: Language;
  accent: Accent;
  value: string | null;
  onChange: (voiceId: string | null) => void;
  disabled?: boolean;
}) {
  const name = useId();
  const voices = useVoices();
  const audio = useRef<HTMLAudioElement | null>(null);
  const [sample, setSample] = useState<SampleState>(null);
  const options = voicesFor(voices.data ?? [], language, accent);
  // A voice of another language (the language just changed; the server drops it on save) or one the operator has
  // since removed: the automatic voice is the one that speaks.
  const shown = value && voices.data && !options.some((v) => v.id === value) ? null : value;

  useEffect(() => () => audio.current?.pause(), []);

  const stop = () => {
    audio.current?.pause();
    setSample(null);
  };
  const play = (voice: Voice) => {
    if (sample?.id === voice.id) return stop();
    audio.current?.pause();
    const el = new Audio(voiceSampleSrc(voice));
    audio.current = el;
    setSample({ id: voice.id, phase: 'loading' });
    el.addEventListener('playing', () => setSample((s) => (s?.id === voice.id ? { ...s, phase: 'playing' } : s)));
    el.addEventListener('ended', () => setSample((s) => (s?.id === voice.id ? null : s)));
    el.play().catch((e: unknown) => {
      // A pause before the sample started is not an error; anything else is said.
      if (e instanceof DOMException && e.name === 'AbortError') return;
      setSample((s) => (s?.id === voice.id ? null : s));
      toast.error(`The sample of ${shortName(voice.label)} could not be played`);
    });
  };

  const row = (id: string | null, title: string, meta: string, voice?: Voice, badge?: string) => {
    const checked = shown === id;
    const playing = voice && sample?.id === voice.id;
    return (
      <div
        key={id ?? 'automatic'}
        className={cn(
          'flex items-center gap-2 rounded-lg border bg-card pr-2',
          'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
          checked ? 'border-primary ring-2 ring-primary' : 'hover:shadow-md',
        )}
        data-testid="voice-option"
      >
        <label className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 p-3">
          <input
            type="radio"
            name={name}
            value={id ?? ''}
            checked={checked}
            onChange={() => onChange(id)}
            className="sr-only"
          />
          <span className="min-w-0 flex-1">
            <span className="flex flex-wrap items-center gap-x-2 text-sm font-medium">
              {title}
              {badge ? (
                <span className="rounded bg-muted px-1.5 py-0.5 text-[0.7rem] font-normal text-muted-foreground">
                  {badge}
                </span>
              ) : null}
            </span>
            <span className="block text-xs text-muted-foreground">{meta}</span>
          </span>
          {checked ? <CheckIcon className="size-4 shrink-0 text-primary" aria-hidden="true" /> : null}
        </label>
        {voice ? (
          <Button
            type="button"
            variant="outline"
            size="icon"
            className="shrink-0 rounded-full"
            aria-label={playing ? `Stop the sample of ${shortName(voice.label)}` : `Play a sample of ${voice.label}`}
            aria-pressed={Boolean(playing)}
            onClick={() => play(voice)}
          >
            {playing && sample.phase === 'loading' ? (
              <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
            ) : playing ? (
              <SquareIcon aria-hidden="true" />
            ) : (
              <PlayIcon aria-hidden="true" />
            )}
          </Button>
        ) : null}
      </div>
    );
  };

  return (
    <fieldset className="min-w-0 space-y-2" disabled={disabled} data-testid="voice-picker">
      <legend className="mb-2 text-sm leading-none font-medium">Speaker</legend>
      <div className="grid max-h-80 gap-2 overflow-y-auto sm:grid-cols-2">
        {row(null, 'Automatic', `The best ${capitalise(language)} voice for your actor: a man's or a woman's`)}
        {options.map((v) =>
          row(
            v.id,
            shortName(v.label),
            `${capitalise(v.gender)} · ${accentName(v.language, v.accent)} · ${ENGINE_NAMES[v.engine]}`,
            v,
            v.default && v.accent === accent ? 'Recommended' : undefined,
          ),
        )}
      </div>
      {voices.isPending ? <p className="text-xs text-muted-foreground">Loading the voices…</p> : null}
      {voices.isError ? (
        <p className="text-xs text-muted-foreground">The voices could not be loaded: the automatic voice speaks.</p>
      ) : null}
    </fieldset>
  );
}
