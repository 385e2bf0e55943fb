import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

export const UNITS = ['metric', 'imperial'] as const;
export type Units = (typeof UNITS)[number];

export class CityArgs {
  @JSONSchema({ description: 'City name, e.g. "Lisbon"' })
  @IsString()
  @Length(1, 100)
  city!: string;

  @JSONSchema({ description: 'Number of days (1 to 7); each tool says how many it covers when omitted' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(7)
  days?: number;

  @JSONSchema({ description: 'Temperature units; metric when omitted' })
  @IsOptional()
  @IsIn(UNITS)
  units?: Units;
}
