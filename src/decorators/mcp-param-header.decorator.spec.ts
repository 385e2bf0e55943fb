import { IsBoolean, IsInt, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { paramHeadersOf } from '../protocol/param-headers.js';
import { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { McpParamHeader } from './mcp-param-header.decorator.js';

class Target {
  @IsString()
  @McpParamHeader('Region')
  region!: string;

  @IsInt()
  @McpParamHeader('Shard-Id')
  shard!: number;

  @IsBoolean()
  dryRun!: boolean;
}

class Wrapper {
  @ValidateNested()
  @Type(() => Target)
  target!: Target;

  @IsString()
  @McpParamHeader('Tenant')
  tenant!: string;
}

describe('@McpParamHeader', () => {
  it('marks the property with x-mcp-header, which the tool then mirrors', () => {
    const schema = new DtoJsonSchemaConverter().toSchema(Target);
    expect((schema.properties as Record<string, Record<string, unknown>>).region).toMatchObject({
      type: 'string',
      'x-mcp-header': 'Region',
    });
    expect(paramHeadersOf(schema)).toEqual([
      { name: 'Region', path: ['region'] },
      { name: 'Shard-Id', path: ['shard'] },
    ]);
  });

  it('on a nested DTO, is a definition error: $defs are not reached through properties alone', () => {
    const schema = new DtoJsonSchemaConverter().toSchema(Wrapper);
    expect(() => paramHeadersOf(schema)).toThrow('x-mcp-header may only mark properties reached');
  });

  it.each(['', 'Re gion', 'Région', 'a\nb', 'x:y'])('refuses %p, which is not an HTTP token', (name) => {
    expect(() => McpParamHeader(name)).toThrow('is not an HTTP token');
  });
});
