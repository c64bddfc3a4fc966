/**
 * What a provider call consumed, in the units providers bill by: images made, characters of text spoken, seconds of
 * video generated. Adapters return one record per billable call; the server adds them into the job's `cost` and
 * logs one line each, so an operator can compare the price charged with what the providers charged. Money is not
 * computed here: list prices change, the units do not (docs/providers.md lists the prices). The type lives in the
 * contracts, since the job's cost is part of the API.
 */
export type { ProviderUsage, UsageStage } from '@hookreel/contracts';
