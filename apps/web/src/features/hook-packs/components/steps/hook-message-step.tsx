import { OptionSelect } from '@/components/option-select';
import { VoicePicker } from '@/components/voice-picker';
import { ACCENT_OPTIONS, type Accent, LANGUAGE_OPTIONS, type Language, LIMITS } from '@hookreel/contracts';
import { useState } from 'react';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { validateHookMessage } from '../../lib/wizard';
import type { StepProps } from '../../lib/wizard-data';
import { StepFrame } from '../wizard-stepper';

const pick = <T extends string>(options: readonly T[], value: string | undefined, fallback: T): T =>
  (options as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

/** Step 3: the hook line the characters say, with language, accent and the voice that says it. */
export function HookMessageStep({ pack, data, setData, advance, back, advancing }: StepProps) {
  const message = data.message ?? {
    hookText: pack?.message ?? '',
    language: pick<Language>(LANGUAGE_OPTIONS.hookMessage, pack?.language, 'english'),
    accent: pick<Accent>(ACCENT_OPTIONS.hookMessage, pack?.accent, 'american'),
    voiceId: pack?.voice_id ?? null,
  };
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<typeof message>) => setData((d) => ({ ...d, message: { ...message, ...patch } }));

  const onContinue = () => {
    const problem = validateHookMessage(message.hookText);
    setError(problem);
    if (problem) return;
    void advance({
      message: message.hookText.trim(),
      language: message.language,
      accent: message.accent,
      voice_id: message.voiceId,
    });
  };

  return (
    <StepFrame
      title="Hook Message"
      description="Write the opening line your characters say. We also write variations of it so each video tests a different hook."
      onBack={back}
      onContinue={onContinue}
      busy={advancing}
      error={error}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="hook-text">Hook message</Label>
        <Textarea
          id="hook-text"
          value={message.hookText}
          maxLength={LIMITS.hookTextMax}
          rows={3}
          placeholder="e.g. This serum cleared my skin in 7 days"
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setError(null);
            set({ hookText: e.target.value });
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              onContinue();
            }
          }}
        />
        <p className="text-right text-xs text-muted-foreground">
          {message.hookText.length} / {LIMITS.hookTextMax}
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <OptionSelect
          id="hook-language"
          label="Language"
          value={message.language}
          options={LANGUAGE_OPTIONS.hookMessage}
          // A voice speaks one language: another language starts from its automatic voice.
          onChange={(language) => set({ language, voiceId: language === message.language ? message.voiceId : null })}
          className="space-y-0 grid gap-1.5"
          triggerClassName="w-full"
        />
        <OptionSelect
          id="hook-accent"
          label="Accent"
          value={message.accent}
          options={ACCENT_OPTIONS.hookMessage}
          onChange={(accent) => set({ accent })}
          className="space-y-0 grid gap-1.5"
          triggerClassName="w-full"
        />
      </div>
      <VoicePicker
        language={message.language}
        accent={message.accent}
        value={message.voiceId}
        onChange={(voiceId) => set({ voiceId })}
      />
    </StepFrame>
  );
}
