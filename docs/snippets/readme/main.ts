import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString, Length } from 'class-validator';
import { McpModule, McpTool, McpToolError } from 'mcp42';

class ForecastArgs {
  @IsString()
  @Length(1, 80)
  city!: string;
}

@Injectable()
class WeatherTools {
  @McpTool({ description: "Today's forecast for a city", input: ForecastArgs })
  forecast({ city }: ForecastArgs) {
    if (city !== 'Lisbon') throw new McpToolError(`No forecast for ${city}; try Lisbon`); // the model reads it
    return `${city}: sunny, 24 °C`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })],
  providers: [WeatherTools],
})
class AppModule {}

const app = await NestFactory.create(AppModule, { bodyParser: false }); // mcp42 reads MCP bodies itself
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
