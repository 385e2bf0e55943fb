import { IsIn, IsOptional } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { CITIES } from './weather.service.js';

export const SUMMARY_STYLES = ['brief', 'detailed'] as const;
export type SummaryStyle = (typeof SUMMARY_STYLES)[number];

/** The arguments of the `forecast_summary` prompt. */
export class ForecastPromptArgs {
  @JSONSchema({ description: 'The city whose forecast to summarise, as weather://cities spells it' })
  @IsIn(CITIES)
  city!: string;

  @JSONSchema({ description: 'brief (one or two sentences, the default) or detailed (day by day)' })
  @IsOptional()
  @IsIn(SUMMARY_STYLES)
  style?: SummaryStyle;
}
