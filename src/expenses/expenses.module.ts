import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Expense } from './entities/expense.entity';
import { ExpenseSource } from './entities/expense-source.entity';
import { ExpenseSourcesRepository } from './expense-sources.repository';
import { ExpensesController } from './expenses.controller';
import { ExpensesRepository } from './expenses.repository';
import { ExpensesService } from './expenses.service';

@Module({
  imports: [TypeOrmModule.forFeature([Expense, ExpenseSource])],
  controllers: [ExpensesController],
  providers: [ExpensesRepository, ExpenseSourcesRepository, ExpensesService],
})
export class ExpensesModule {}
