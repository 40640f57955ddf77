/** Drawn for Conveyor: a stepped "M" of blocks, shading from yellow to red, over black. */
export const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#fff"/><path fill="#111" d="M10 12h9v40h-9zM45 12h9v40h-9zM19 21h9v9h-9zM36 21h9v9h-9zM28 30h8v9h-8z"/><path fill="#ffd800" d="M10 12h9v9h-9zM45 12h9v9h-9z"/><path fill="#ffaf00" d="M19 21h9v9h-9zM36 21h9v9h-9z"/><path fill="#ff8205" d="M28 30h8v9h-8z"/><path fill="#fa500f" d="M10 39h9v6h-9zM45 39h9v6h-9z"/><path fill="#e10500" d="M10 45h9v7h-9zM45 45h9v7h-9z"/></svg>';
