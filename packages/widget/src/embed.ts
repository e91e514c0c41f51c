import { VoxgateChat } from "./voxgate-chat.component.ts";
import "./voxgate-chat.ts";

// The server serves this file at <base>/widget/voxgate-chat.js, so without an api-base attribute the
// widget talks to the server it was loaded from. Elements already in the page upgrade inside
// define() but render in a later microtask, after this line has run. (The URL is held in a variable
// because Vite rewrites `new URL("literal", import.meta.url)` into a bundled asset.)
const scriptUrl = import.meta.url;
VoxgateChat.defaultApiBase ??= new URL("..", scriptUrl).href.replace(/\/+$/, "");
