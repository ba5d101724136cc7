// The version the portal reports (spec: "The service reports version 0.14.1").
export const PORTAL_VERSION = '0.14.1';
