import { IsInt, IsString, Length, Min } from 'class-validator';

export class TransferArgs {
  @IsString()
  @Length(1, 34)
  to!: string;

  @IsInt()
  @Min(1)
  amountCents!: number;
}
