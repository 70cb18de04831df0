import { checkProcessAnswers } from './process-answers';

/*
 * Runs in every e2e file after Jest's globals exist (setupFilesAfterEnv): once the file's own
 * hooks are done, the answers it read from a service run as a process are checked against the
 * OpenAPI document (process-answers.ts). A group (test-group.ts) checks each member's itself.
 */
afterAll(checkProcessAnswers);
