import { Controller, Delete, Get, Param, Post, Put } from '@nestjs/common';
import { ParseIdPipe } from '../http/parse-id.pipe';
import { RequestInput } from '../http/request-input.decorator';
import { SendDocumentDto } from '../documents/dto/send-document.dto';
import { ConvertEstimateDto } from './dto/convert-estimate.dto';
import { CreateEstimateDto } from './dto/create-estimate.dto';
import { UpdateEstimateDto } from './dto/update-estimate.dto';
import { EstimatesService } from './estimates.service';
import { ListEstimatesDto } from './dto/list-estimates.dto';

@Controller('estimate')
export class EstimatesController {
  constructor(private readonly estimates: EstimatesService) {}

  @Get('all')
  list(@RequestInput() query: ListEstimatesDto) {
    return this.estimates.list(query);
  }

  @Post('add')
  create(@RequestInput() input: CreateEstimateDto) {
    return this.estimates.create(input);
  }

  @Post('send')
  send(@RequestInput() input: SendDocumentDto) {
    return this.estimates.send(input);
  }

  @Post(':id/convert')
  convert(@Param('id', ParseIdPipe) id: number, @RequestInput() input: ConvertEstimateDto) {
    return this.estimates.convert(id, input);
  }

  @Get(':id')
  get(@Param('id', ParseIdPipe) id: number) {
    return this.estimates.get(id);
  }

  @Put(':id')
  update(@Param('id', ParseIdPipe) id: number, @RequestInput() input: UpdateEstimateDto) {
    return this.estimates.update(id, input);
  }

  @Delete(':id')
  archive(@Param('id', ParseIdPipe) id: number) {
    return this.estimates.archive(id);
  }
}
