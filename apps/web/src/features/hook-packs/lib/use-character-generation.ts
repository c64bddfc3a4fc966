import {
  type CharacterType,
  type GeneratedCharacter,
  INSUFFICIENT_CREDITS,
  isTerminalJobStatus,
  LIMITS,
  MESSAGES,
  TIMINGS,
} from '@hookreel/contracts';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { generateCharacters, type GenerateCharactersInput } from '../api/generate-characters';
import { getJob } from '../api/get-job';
import { hookPackKeys } from '../api/keys';
import { useCreditsSpent, usePaidErrorToast } from './use-paid-error';

/** A stand-in shown where generation failed (negative id: never sent to the server). */
export interface PlaceholderCharacter extends GeneratedCharacter {
  placeholder: true;
  retry: Omit<GenerateCharactersInput, 'hookPackId'>;
}

let nextPlaceholderId = -1;
const placeholdersFor = (
  prompt: string,
  typeId: number | null,
  retry: PlaceholderCharacter['retry'],
): PlaceholderCharacter[] =>
  Array.from({ length: LIMITS.charactersPerType }, () => ({
    id: nextPlaceholderId--,
    url: '',
    prompt,
    selected: false,
    character_type_id: typeId,
    kind: 'illustrated' as const,
    creator_id: null,
    placeholder: true as const,
    retry,
  }));

/**
 * Character generation that outlives the step that started it: 4 per type after the Character Type step,
 * 4 more per 'Generate More'. Each request's render job is watched; a failed job marks its characters failed.
 * Request failures: 402 → the credits message; otherwise the fallback toast and placeholder characters.
 */
export function useCharacterGeneration(hookPackId: number | null) {
  const queryClient = useQueryClient();
  const paidError = usePaidErrorToast();
  const creditsSpent = useCreditsSpent();
  const [jobs, setJobs] = useState<Array<{ jobId: number; characterIds: number[] }>>([]);
  const [placeholders, setPlaceholders] = useState<PlaceholderCharacter[]>([]);
  const [failedIds, setFailedIds] = useState<ReadonlySet<number>>(new Set());
  const [inFlight, setInFlight] = useState(0);
  const handled = useRef(new Set<number>());

  const run = useCallback(
    async (
      input: Omit<GenerateCharactersInput, 'hookPackId'>,
      fallback: string,
      prompt: string,
      typeId: number | null,
    ) => {
      if (!hookPackId) return false;
      setInFlight((n) => n + 1);
      try {
        const result = await generateCharacters({ ...input, hookPackId });
        setJobs((js) => [...js, { jobId: result.job_id, characterIds: result.characters.map((c) => c.id) }]);
        queryClient.setQueryData<GeneratedCharacter[]>(hookPackKeys.characters(hookPackId), (old) => {
          if (!old) return old;
          const known = new Set(old.map((c) => c.id));
          return [...old, ...result.characters.filter((c) => !known.has(c.id))];
        });
        void queryClient.invalidateQueries({ queryKey: hookPackKeys.characters(hookPackId) });
        creditsSpent();
        return true;
      } catch (error) {
        if (!paidError(error, INSUFFICIENT_CREDITS.characters, fallback)) {
          setPlaceholders((ps) => [...ps, ...placeholdersFor(prompt, typeId, input)]);
        }
        // After a 409 the characters another tab ordered are on the server: show them.
        void queryClient.invalidateQueries({ queryKey: hookPackKeys.characters(hookPackId) });
        return false;
      } finally {
        setInFlight((n) => n - 1);
      }
    },
    [hookPackId, paidError, creditsSpent, queryClient],
  );

  /** Four characters for each given type (one request per type). */
  const generateForTypes = useCallback(
    (types: readonly CharacterType[]) =>
      Promise.all(
        types.map((t) =>
          run(
            { characterTypeId: t.id, count: LIMITS.charactersPerType },
            MESSAGES.hookPacks.fallbackCharacters,
            t.description,
            t.id,
          ),
        ),
      ),
    [run],
  );

  /** 'Generate More': four characters from a free description. */
  const generateMore = useCallback(
    (description: string) =>
      run(
        { description: description.trim(), count: LIMITS.generateMoreCount },
        MESSAGES.hookPacks.fallbackMore,
        description.trim(),
        null,
      ),
    [run],
  );

  /** Retries the request behind a placeholder group (the group is replaced by the real characters). */
  const retryPlaceholder = useCallback(
    (p: PlaceholderCharacter) => {
      setPlaceholders((ps) => ps.filter((x) => x.prompt !== p.prompt || x.character_type_id !== p.character_type_id));
      const fallback =
        p.character_type_id === null ? MESSAGES.hookPacks.fallbackMore : MESSAGES.hookPacks.fallbackCharacters;
      return run(p.retry, fallback, p.prompt, p.character_type_id);
    },
    [run],
  );

  const jobQueries = useQueries({
    queries: jobs.map((j) => ({
      queryKey: hookPackKeys.job(j.jobId),
      queryFn: ({ signal }: { signal: AbortSignal }) => getJob(j.jobId, signal),
      staleTime: 0,
      refetchInterval: (q: { state: { data?: { status: string } } }) =>
        q.state.data && isTerminalJobStatus(q.state.data.status) ? false : TIMINGS.characterPollMs,
    })),
  });

  const statuses = jobQueries.map((q) => q.data?.status ?? '').join(',');
  useEffect(() => {
    jobQueries.forEach((q, i) => {
      const job = jobs[i];
      if (!job || !q.data || !isTerminalJobStatus(q.data.status) || handled.current.has(job.jobId)) return;
      handled.current.add(job.jobId);
      if (hookPackId) void queryClient.invalidateQueries({ queryKey: hookPackKeys.characters(hookPackId) });
      if (q.data.status === 'failed') {
        toast.error(MESSAGES.hookPacks.generateCharactersBackgroundFailed);
        setFailedIds((s) => new Set([...s, ...job.characterIds]));
      }
    });
    // statuses summarises jobQueries' data
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [statuses, jobs, hookPackId, queryClient]);

  return { generateForTypes, generateMore, retryPlaceholder, placeholders, failedIds, generating: inFlight > 0 };
}

export type CharacterGeneration = ReturnType<typeof useCharacterGeneration>;
