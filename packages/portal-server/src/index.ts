// What tests may import from the portal.
export { loadPortalSettings, type PortalSettings, portalConfigSpec } from './config.js';
export { createPortalServer, type PortalServer } from './server.js';
