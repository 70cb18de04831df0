import { runUnitGroup } from '../setup/unit-group';

runUnitGroup(__filename);
