import { runGroup } from '../setup/test-group';

runGroup(__filename);
