import { Injectable, PayloadTooLargeException, BadRequestException, type NestMiddleware } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';

const MAX_BYTES = 64 * 1024;

/**
 * Parses the JSON bodies of the REST API on Express. The sample creates its application with
 * `bodyParser: false` so that mcp42 reads MCP bodies itself; the API's routes then need a parser of
 * their own. Fastify parses JSON bodies for its routes by itself (and mcp42 keeps its parsers away
 * from the MCP endpoint), so there this lets requests through untouched.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly express: boolean;

  constructor(adapterHost: HttpAdapterHost) {
    this.express = adapterHost.httpAdapter.getType() === 'express';
  }

  use(request: IncomingMessage & { body?: unknown }, _response: unknown, next: (error?: unknown) => void): void {
    const type = request.headers['content-type'] ?? '';
    if (!this.express || request.body !== undefined || !/^application\/json\b/i.test(type)) {
      next();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BYTES) chunks.push(chunk);
    });
    request.on('error', next);
    request.on('end', () => {
      if (size > MAX_BYTES) {
        next(new PayloadTooLargeException());
        return;
      }
      try {
        request.body = size === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
        next();
      } catch {
        next(new BadRequestException('The body is not valid JSON'));
      }
    });
  }
}
