import { ID_NOT_FOUND, MESSAGES } from '@hookreel/contracts';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { dependencyFailure, HttpError } from '../errors.ts';

/** Every failure leaves as `{detail}`: validation 422 with the first rule's message, our errors as thrown. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ detail: error.detail, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A path parameter names a resource; so does an id in the query (UrlId): malformed means "no such thing".
      if (error.validationContext === 'params' || error.validation.some((v) => v.message === ID_NOT_FOUND)) {
        return reply.status(404).send({ detail: MESSAGES.server.notFound });
      }
      const first = error.validation[0];
      const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replaceAll('/', '.') : '';
      const message = first?.message ?? 'Invalid request';
      return reply.status(422).send({ detail: message, ...(where ? { field: where } : {}) });
    }
    if (error instanceof ZodError) {
      const first = error.issues[0];
      return reply.status(422).send({
        detail: first?.message ?? 'Invalid request',
        ...(first?.path.length ? { field: first.path.join('.') } : {}),
      });
    }
    const status = (error as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ detail: error.message || 'Bad request' });
    }
    const unavailable = dependencyFailure(error);
    if (unavailable) {
      request.log.warn({ err: error }, unavailable === 'storage-full' ? 'storage full' : 'dependency unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ detail: unavailable === 'storage-full' ? STORAGE_FULL : MESSAGES.server.serviceUnavailable });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: MESSAGES.server.internal });
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ detail: MESSAGES.server.notFound }));
}

/**
 * Errors the router raises before any route runs (a malformed percent-encoding, a path parameter over
 * maxParamLength): Fastify answers these itself unless given this handler, in its own shape rather than ours.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply.status(status).send({ detail: error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : error.message });
}

/**
 * Requests Node's HTTP parser refuses (oversized headers, conflicting Content-Length, bad characters) never reach
 * Fastify's handlers; answer them in the same `{detail}` shape, then drop the connection as Node would.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ detail: STATUS_CODES[status] ?? 'Bad Request' });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

const STORAGE_FULL = 'The server has run out of storage space. Please try again later.';
