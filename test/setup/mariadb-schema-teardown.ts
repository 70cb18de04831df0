import { removeSchemaScript } from './mariadb-schema';

/** Jest's global teardown of the MariaDB project (mariadb-schema.ts made the script it removes). */
export default removeSchemaScript;
