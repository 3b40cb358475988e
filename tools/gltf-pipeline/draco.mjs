// three's DRACOLoader with its decoding done in this thread by Google's decoder (npm draco3dgltf), for Node, which has
// no web workers: decodeGeometry below is the body of three's DRACOWorker (three r187, DRACOLoader.js, decodeGeometry,
// decodeIndex, decodeAttribute), and the geometry is built by three's own DRACOLoader._createGeometry. Copied next to
// the oracle as pipeline-draco.mjs by run.sh.
export class NodeDracoLoader {
  constructor(DRACOLoader, draco) {
    this.loader = new DRACOLoader();
    this.draco = draco;
  }

  preload() { return this; }

  decodeDracoFile(buffer, callback, attributeIDs, attributeTypes, vertexColorSpace, onError = () => {}) {
    try {
      const taskConfig = { attributeIDs, attributeTypes, useUniqueIDs: !!attributeIDs, vertexColorSpace };
      callback(this.loader._createGeometry(decodeGeometry(this.draco, new Int8Array(buffer), taskConfig)));
    } catch (e) {
      onError(e);
    }
  }
}

const TYPED = { Float32Array, Int8Array, Int16Array, Int32Array, Uint8Array, Uint16Array, Uint32Array };

export function decodeGeometry(draco, array, taskConfig) {
  const decoder = new draco.Decoder();
  try {
    if (decoder.GetEncodedGeometryType(array) !== draco.TRIANGULAR_MESH) throw new Error('not a Draco triangular mesh');
    const mesh = new draco.Mesh();
    try {
      const status = decoder.DecodeArrayToMesh(array, array.byteLength, mesh);
      if (!status.ok() || mesh.ptr === 0) throw new Error('Draco decoding failed: ' + status.error_msg());
      const geometry = { index: decodeIndex(draco, decoder, mesh), attributes: [] };
      for (const name in taskConfig.attributeIDs) {
        const attribute = decoder.GetAttributeByUniqueId(mesh, taskConfig.attributeIDs[name]);
        const result = decodeAttribute(draco, decoder, mesh, name, TYPED[taskConfig.attributeTypes[name]], attribute);
        if (name === 'color') result.vertexColorSpace = taskConfig.vertexColorSpace;
        geometry.attributes.push(result);
      }
      return geometry;
    } finally {
      draco.destroy(mesh);
    }
  } finally {
    draco.destroy(decoder);
  }
}

function decodeIndex(draco, decoder, mesh) {
  const numIndices = mesh.num_faces() * 3;
  const byteLength = numIndices * 4;
  const ptr = draco._malloc(byteLength);
  decoder.GetTrianglesUInt32Array(mesh, byteLength, ptr);
  const index = new Uint32Array(draco.HEAPF32.buffer, ptr, numIndices).slice();
  draco._free(ptr);
  return { array: index, itemSize: 1 };
}

function decodeAttribute(draco, decoder, mesh, name, TypedArray, attribute) {
  const count = mesh.num_points();
  const itemSize = attribute.num_components();
  const srcByteStride = itemSize * TypedArray.BYTES_PER_ELEMENT;
  const dstByteStride = Math.ceil(srcByteStride / 4) * 4;
  const dstStride = dstByteStride / TypedArray.BYTES_PER_ELEMENT;
  const srcByteLength = count * srcByteStride;
  const ptr = draco._malloc(srcByteLength);
  decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, dataType(draco, TypedArray), srcByteLength, ptr);
  const src = new TypedArray(draco.HEAPF32.buffer, ptr, srcByteLength / TypedArray.BYTES_PER_ELEMENT);
  let array;
  if (srcByteStride === dstByteStride) {
    array = src.slice();
  } else {
    array = new TypedArray(count * dstByteStride / TypedArray.BYTES_PER_ELEMENT);
    for (let i = 0; i < count; i++) for (let j = 0; j < itemSize; j++) array[i * dstStride + j] = src[i * itemSize + j];
  }
  draco._free(ptr);
  return { name, count, itemSize, array, stride: dstStride };
}

function dataType(draco, TypedArray) {
  switch (TypedArray) {
    case Float32Array: return draco.DT_FLOAT32;
    case Int8Array: return draco.DT_INT8;
    case Int16Array: return draco.DT_INT16;
    case Int32Array: return draco.DT_INT32;
    case Uint8Array: return draco.DT_UINT8;
    case Uint16Array: return draco.DT_UINT16;
    case Uint32Array: return draco.DT_UINT32;
  }
  throw new Error('unexpected attribute type');
}
