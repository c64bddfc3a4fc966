import { MESSAGES } from '@hookreel/contracts';

/** An error that carries the HTTP status and the `detail` people see. Services throw these; routes stay thin. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the `{detail}` body (a 402's missing amount). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail: string = MESSAGES.server.unauthorized) => new HttpError(401, detail);
/** 402 with what the operation costs, what the user has and what is missing, in credits. */
export const paymentRequired = (detail: string, amounts?: { required: number; available: number }) =>
  new HttpError(
    402,
    detail,
    {},
    amounts ? { ...amounts, missing: Math.round((amounts.required - amounts.available) * 100) / 100 } : {},
  );
export const forbidden = (detail: string = MESSAGES.server.forbidden) => new HttpError(403, detail);
/** Another user's resource is indistinguishable from a missing one. */
export const notFound = (detail: string = MESSAGES.server.notFound) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const payloadTooLarge = (detail: string) => new HttpError(413, detail);
export const unprocessable = (detail: string) => new HttpError(422, detail);
export const serviceUnavailable = (detail: string = MESSAGES.server.serviceUnavailable) =>
  new HttpError(503, detail, { 'retry-after': '5' });
