import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** The variables of the fixture's template and of every generated one: `{id}`, a string on the wire. */
export class ItemVariables {
  @JSONSchema({ description: 'The item number' })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  id!: number;
}

export const SUMMARY_STYLES = ['brief', 'detailed'] as const;

/** The arguments of the fixture's prompt; `style` gets its enum as completer, `topic` a method. */
export class SummaryArgs {
  @JSONSchema({ description: 'What to summarise' })
  @IsString()
  @Length(1, 100)
  topic!: string;

  @JSONSchema({ description: 'brief (the default) or detailed' })
  @IsOptional()
  @IsIn(SUMMARY_STYLES)
  style?: (typeof SUMMARY_STYLES)[number];
}
