import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { HttpError } from '../lib/http-error';

interface Issue {
  instancePath?: string;
  message?: string;
}

function describeValidation(issues: Issue[], context: string | undefined): string {
  const first = issues[0];
  if (!first) return 'Invalid request';
  const field = first.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  const where = field || context || 'request';
  return `${where}: ${first.message ?? 'is invalid'}`;
}

/**
 * Errors the router meets before any route runs (a malformed or over-long path). Fastify's own answer
 * echoes the whole URL back; these name the problem and nothing the client sent.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A value in the address is too long.'
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The address is not valid.'
        : 'The request is not valid.';
  return reply.status(400).send({ message, code: 'BAD_URL' });
}

/**
 * One error shape for the whole API: `{ message, code }` with a proper status. Validation problems name
 * the field; unexpected errors are logged with their stack and answered with a generic 500.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        return reply.status(error.status).send({
          message: error.message,
          code: error.code,
          ...(error.fields ? { fields: error.fields } : {}),
        });
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const message = describeValidation(error.validation as Issue[], error.validationContext);
        return reply.status(400).send({ message, code: 'VALIDATION_ERROR' });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response did not match its schema');
        return reply.status(500).send({ message: 'Internal server error', code: 'INTERNAL' });
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const message =
          error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'Request body is too large'
            : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Unsupported content type'
              : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
                ? 'Request body is empty'
                : error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY'
                  ? 'Malformed JSON body'
                  : error.message;
        return reply.status(status).send({ message, code: error.code ?? 'BAD_REQUEST' });
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ message: 'Internal server error', code: 'INTERNAL' });
    });
  },
  { name: 'errors' },
);
