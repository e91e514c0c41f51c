import { css } from "lit";
import { shared, tokens } from "./styles.ts";

export const consoleStyles = [
  tokens,
  shared,
  css`
    :host {
      display: block;
      min-height: 100vh;
      background: var(--_background);
    }
    .skip {
      position: absolute;
      left: -9999px;
    }
    .skip:focus {
      left: 0.5rem;
      top: 0.5rem;
      z-index: 10;
      background: var(--_background);
      padding: 0.5rem;
    }
    .bar {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.75rem;
      padding: 0.5rem 1rem;
      border-bottom: 1px solid var(--_border);
    }
    .brand {
      font-size: 1.15rem;
      color: var(--_link);
    }
    .who {
      margin-left: auto;
      overflow-wrap: anywhere;
    }
    .layout {
      display: flex;
      flex-wrap: wrap;
    }
    nav {
      flex: 0 0 12rem;
      border-right: 1px solid var(--_border);
      padding: 0.5rem;
    }
    nav ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    nav a {
      display: block;
      padding: 0.5rem 0.75rem;
      border-radius: 8px;
      text-decoration: none;
      color: var(--_text);
    }
    nav a[aria-current="page"] {
      background: var(--_accent);
      color: var(--_on-accent);
    }
    main {
      flex: 1 1 20rem;
      min-width: 0;
      padding: 1rem 1.5rem;
    }
    .sign-in {
      max-width: 26rem;
      margin: 3rem auto;
    }
    .loading {
      padding: 2rem;
    }
    .banner {
      margin: 0 0 1rem;
      padding: 0.75rem 1rem;
      border: 2px solid var(--_danger);
      border-radius: var(--_radius);
      color: var(--_danger);
      font-weight: 600;
    }
    .banner a {
      color: inherit;
    }
    .banner.info {
      border-color: var(--_border);
      color: inherit;
      font-weight: normal;
    }

    /* Narrow screens and high zoom: the navigation becomes a wrapping row above the screen. */
    @media (max-width: 700px) {
      nav {
        flex-basis: 100%;
        border-right: 0;
        border-bottom: 1px solid var(--_border);
      }
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem;
      }
      main {
        padding: 1rem;
      }
    }
  `,
];
