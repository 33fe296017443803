import type { CallDefinition } from '@tradeport/contracts';
import { z } from 'zod';

/**
 * A contract's schema as JSON Schema (OpenAPI 3.0's dialect: `nullable` rather than a union with
 * null). The API document shows them; the routes hand a call's response schema to Fastify, whose
 * compiled serializer (fast-json-stringify) then writes the call's answers.
 */
export const jsonSchema = (schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>;

/**
 * The route schema that has Fastify write a call's successful (200) answers with a serializer
 * compiled from the call's response contract, instead of `JSON.stringify`: the same text, about
 * twice as fast for answers full of prices (docs/benchmarks.md, reads). Refusals (4xx) have no
 * schema and are written by `JSON.stringify`; file downloads (`produces`) are not JSON at all.
 */
export function responseSchema(call: CallDefinition): { response: Record<number, unknown> } | undefined {
  return call.produces ? undefined : { response: { 200: jsonSchema(call.response, 'output') } };
}
