import 'reflect-metadata';
import {
  Body,
  Controller,
  DefaultValuePipe,
  Get,
  Param,
  ParseIntPipe,
  ParseUUIDPipe,
  Post,
  Query,
} from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { thrownBy } from '../../test/utils/thrown.js';
import { describeRoute } from './route-description.js';
import { buildRouteInput, type RouteInput } from './route-input.js';

class Node {
  @IsString()
  name!: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Node)
  child?: Node;
}

class PageParams {
  @IsString()
  slug!: string;
}

@Controller('v')
class Routes {
  @Get('pages/:slug{/:page}')
  page(@Param() params: PageParams, @Query('size', new DefaultValuePipe(10), ParseIntPipe) size: number): object {
    return { params, size };
  }

  @Get('users/:id')
  user(
    @Param('id', ParseUUIDPipe) id: string,
    @Query('limit', new ParseIntPipe({ optional: true })) limit?: number,
  ): object {
    return { id, limit };
  }

  @Post('raw')
  raw(@Body() body: object): object {
    return body;
  }

  @Post('tree')
  tree(@Body() body: Node): object {
    return body;
  }
}

const input = (method: string): RouteInput =>
  buildRouteInput(
    describeRoute(Routes, method, `@McpRoute() on Routes.${method}`),
    new DtoJsonSchemaConverter(),
    'label',
  );

describe('buildRouteInput', () => {
  it('takes a whole @Param() DTO, an optional path group, and a query field a DefaultValuePipe fills in', () => {
    const { schema, places } = input('page');
    expect(schema).toEqual({
      type: 'object',
      properties: { slug: { type: 'string' }, page: { type: 'string' }, size: { type: 'integer' } },
      required: ['slug'],
      additionalProperties: false,
    });
    expect([...places]).toEqual([
      ['slug', 'path'],
      ['page', 'path'],
      ['size', 'query'],
    ]);
  });

  it('describes ParseUUIDPipe as a uuid string, and an optional parse pipe as optional', () => {
    expect(input('user').schema).toEqual({
      type: 'object',
      properties: { id: { type: 'string', format: 'uuid' }, limit: { type: 'integer' } },
      required: ['id'],
      additionalProperties: false,
    });
  });

  it('refuses a whole body without a DTO class', () => {
    const error = thrownBy(() => input('raw'));
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toContain('@Body() takes the whole body without a DTO class');
  });

  it('refuses a DTO that contains itself: it has no inline form', () => {
    const error = thrownBy(() => input('tree'));
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toContain('Node contains itself');
  });
});
