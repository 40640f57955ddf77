/** A magnifier over bars of a chart, on BigQuery's blue. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#4386fa"/><circle cx="29" cy="29" r="14" fill="none" stroke="#fff" stroke-width="4"/><path d="M39 39l11 11" stroke="#fff" stroke-width="5" stroke-linecap="round"/><path d="M23 34v-5M29 34v-10M35 34v-7" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>';
