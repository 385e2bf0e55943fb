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
import { ApiBody, ApiParam, ApiProperty, ApiQuery, PartialType } from '@nestjs/swagger';
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

class Draft {
  @ApiProperty({ description: 'Title', maxLength: 80 })
  @IsString()
  title!: string;

  @ApiProperty({ description: 'Body text' })
  text!: string;
}

class DraftPatch extends PartialType(Draft) {}

@Controller('v')
class Routes {
  @Post('drafts')
  @ApiBody({ type: Draft })
  draft(@Body() body: Record<string, unknown>): object {
    return body;
  }

  @Post('drafts/:id')
  @ApiParam({ name: 'id', description: 'Draft id', format: 'uuid' })
  @ApiQuery({ name: 'notify', type: Boolean, required: false, description: 'Tell the readers' })
  @ApiQuery({ name: 'size', description: 'Page size', maximum: 100 })
  patch(@Param('id') id: string, @Body() body: DraftPatch, @Query('size', ParseIntPipe) size: number): object {
    return { id, body, size };
  }

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

  it('describes a body from @ApiBody({ type }) when its parameter type is no DTO class', () => {
    expect(input('draft').schema).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'Title', maxLength: 80 },
        text: { type: 'string', description: 'Body text' },
      },
      required: ['title', 'text'],
      additionalProperties: false,
    });
  });

  it("adds @ApiParam() and @ApiQuery() to the route's own arguments, and reads swagger's PartialType()", () => {
    expect(input('patch').schema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', description: 'Draft id', format: 'uuid' },
        title: { type: 'string', description: 'Title', maxLength: 80 },
        text: { type: 'string', description: 'Body text' },
        size: { type: 'integer', description: 'Page size', maximum: 100 },
        notify: { type: 'boolean', description: 'Tell the readers' },
      },
      required: ['id', 'size'],
      additionalProperties: false,
    });
  });
});
