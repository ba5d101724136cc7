// The opensearch engine end to end against its loopback test double (test/doubles/search.ts; no server can be
// installed here): the shared search-engine suite of search-suite.ts.
import { searchEngineSuite } from './search-suite.js';

searchEngineSuite('opensearch');
