import 'reflect-metadata';
import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiProperty, ApiResponse } from '@nestjs/swagger';
import { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { DtoSchemas } from './dto-schemas.js';
import { describeRoute } from './route-description.js';
import { routeOutput, type RouteOutput } from './route-output.js';

class Job {
  @ApiProperty()
  id!: string;
}

class Receipt {
  @ApiProperty()
  accepted!: boolean;
}

@ApiResponse({ status: 500, type: Receipt })
@Controller('jobs')
class Jobs {
  @ApiOkResponse({ type: Job })
  @ApiAcceptedResponse({ type: Receipt })
  @HttpCode(202)
  @Post()
  start(): void {}

  @ApiResponse({ status: 201, type: Receipt })
  @ApiResponse({ status: 200, type: [Job] })
  @Get()
  list(): void {}

  @ApiOkResponse({ type: String })
  @Get('name')
  name(): void {}

  @Get('none')
  none(): void {}
}

const output = (method: keyof Jobs): RouteOutput | undefined =>
  routeOutput(
    describeRoute(Jobs, method, 'label'),
    Jobs,
    new DtoSchemas(new DtoJsonSchemaConverter(), 'label', 'output'),
  );

describe('routeOutput', () => {
  it('takes the type of the status the route answers (@HttpCode()), its objects left open', () => {
    expect(output('start')).toEqual({
      schema: { type: 'object', properties: { accepted: { type: 'boolean' } }, required: ['accepted'] },
      wrapped: false,
    });
  });

  it('else the lowest 2xx, an array wrapped under result', () => {
    expect(output('list')).toEqual({
      schema: {
        type: 'object',
        properties: {
          result: {
            type: 'array',
            items: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
          },
        },
        required: ['result'],
      },
      wrapped: true,
    });
  });

  it('has none for a body that is no object or array, or no declared response', () => {
    expect(output('name')).toBeUndefined();
    expect(output('none')).toBeUndefined();
  });
});
