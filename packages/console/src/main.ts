import "./voxgate-console.ts";
