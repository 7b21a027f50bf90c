// Image types and sizes read from the bytes (util/image-type.ts): what read_file and MCP results
// are sent as, and what the Anthropic mapping checks against the API's 8000 pixels a side.
import { describe, expect, it } from 'vitest';
import { imageSize, imageTypeOfBase64 } from '../../src/util/image-type.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('imageSize', () => {
  it("reads PNG's IHDR, GIF's screen and WebP's three frame kinds", () => {
    expect(imageSize(hex('89504e470d0a1a0a 0000000d 49484452 000005a0 0000217a 0806000000'))).toEqual({ width: 1440, height: 8570 });
    expect(imageSize(Buffer.concat([Buffer.from('GIF89a'), hex('2003 5802')]))).toEqual({ width: 800, height: 600 });
    const riff = (chunk: string, rest: string) => Buffer.concat([Buffer.from('RIFF'), hex('00000000'), Buffer.from(`WEBP${chunk}`), hex(rest)]);
    expect(imageSize(riff('VP8X', '0a000000 00000000 ff1f00 3f2100'))).toEqual({ width: 8192, height: 8512 });
    expect(imageSize(riff('VP8 ', '00000000 000000 9d012a 0008 0006'))).toEqual({ width: 2048, height: 1536 });
    // VP8L: 14 bits of width - 1, then 14 of height - 1, after its signature byte.
    const bits = (2047 | (1023 << 14)) >>> 0;
    expect(imageSize(riff('VP8L', `00000000 2f ${Buffer.from(Uint32Array.of(bits).buffer).toString('hex')} 0000000000`))).toEqual({ width: 2048, height: 1024 });
  });

  it("reads a JPEG's first frame, past the segments before it (JFIF, EXIF)", () => {
    const jpeg = hex('ffd8 ffe0 0010 4a46494600 0101 0000 0100 0100 00 ffe1 0008 45786966 0000 ffc0 0011 08 217a 05a0 03 012200 021101 031101 ffd9');
    expect(imageSize(jpeg)).toEqual({ width: 1440, height: 8570 });
    expect(imageSize(hex('ffd8 ffe0 0010'))).toBeNull();
  });

  it('knows an image by its bytes, whatever it is called', () => {
    expect(imageTypeOfBase64(hex('89504e470d0a1a0a0000').toString('base64'))).toBe('image/png');
    expect(imageTypeOfBase64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'))).toBeNull();
  });
});
