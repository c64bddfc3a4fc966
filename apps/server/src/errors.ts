import { MESSAGES } from '@hookreel/contracts';

/** An error that carries the HTTP status and the `detail` people see. Services throw these; routes stay thin. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail: string = MESSAGES.server.unauthorized) => new HttpError(401, detail);
export const paymentRequired = (detail: string) => new HttpError(402, detail);
export const forbidden = (detail: string = MESSAGES.server.forbidden) => new HttpError(403, detail);
/** Another user's resource is indistinguishable from a missing one. */
export const notFound = (detail: string = MESSAGES.server.notFound) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
export const payloadTooLarge = (detail: string) => new HttpError(413, detail);
export const unprocessable = (detail: string) => new HttpError(422, detail);
export const serviceUnavailable = (detail: string = MESSAGES.server.serviceUnavailable) =>
  new HttpError(503, detail, { 'retry-after': '5' });
