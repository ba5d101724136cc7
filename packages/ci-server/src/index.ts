// What other packages and tests may import from the control plane.
export { type CiSettings, ciConfigSpec, loadCiSettings } from './config.js';
export { type CiServer, createCiServer } from './server.js';
