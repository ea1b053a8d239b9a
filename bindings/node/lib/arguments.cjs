'use strict';
// The checks of the JavaScript-side arguments (options, limits), with the
// TypeError or RangeError that says what was expected. The addon checks
// the arguments it converts (lines, chunks, roles) itself.

// What a value is, for an error message.
function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function checkOptions(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, not ${describe(options)}`);
  }
  return options;
}

// A line limit: undefined or 0 for the library's default.
function checkMaxLine(maxLine) {
  if (maxLine === undefined) return 0;
  if (typeof maxLine !== 'number') {
    throw new TypeError(`maxLine must be a number of bytes, not ${describe(maxLine)}`);
  }
  if (!Number.isSafeInteger(maxLine) || maxLine < 0) {
    throw new RangeError(`maxLine must be a whole number of bytes, 0 or more (0: the library's default), not ${maxLine}`);
  }
  return maxLine;
}

module.exports = { describe, checkOptions, checkMaxLine };
