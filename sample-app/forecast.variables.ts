import { IsString, Length } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/**
 * The variables of `weather://forecast/{city}`. Only the shape is checked here: a well-formed city the
 * backend does not know is a resource that does not exist (-32002), not an invalid request (-32602).
 */
export class ForecastVariables {
  @JSONSchema({ description: 'A city the weather service knows, e.g. "Lisbon" (see weather://cities)' })
  @IsString()
  @Length(1, 100)
  city!: string;
}
