import { InferkitError, isInferkitError } from '../errors.js';
import { assertRepoPath, type FileSpec } from '../hub/file-spec.js';
import { resolveModel } from '../hub/resolve-model.js';
import type { ResolvedModel, ResolveModelOptions } from '../hub/types.js';
import { externalDataLocationsOfFile } from './onnx-external-data.js';

/** A model resolved with its ONNX graph and the graph's external-data files. */
export interface ResolvedOnnxModel {
  resolved: ResolvedModel;
  /** Repo path of the graph, e.g. `onnx/model.onnx`. */
  graph: string;
  /** Absolute path of the graph file (open it by path, so its external data is found beside it). */
  graphPath: string;
  /** Repo paths of the external-data files fetched beside the graph (e.g. `onnx/model.onnx.data`). */
  externalData: string[];
}

/**
 * Resolves `source` with `spec` (local folder or hub, see resolveModel), takes the first of
 * `graphs` that was resolved, reads the `location`s of its external data (real exports keep their
 * weights in `onnx/model.onnx.data`) and resolves those files too, into the same folder. For a hub
 * id, when the second call lands on another commit (a push in between), everything is resolved once
 * more. Errors: resolveModel's codes (a missing data file is `model_not_found` naming it), and
 * `model_load_failed` for a graph whose external data points outside its repo.
 */
export async function resolveOnnxModel(
  source: string,
  spec: FileSpec,
  graphs: readonly string[],
  options: ResolveModelOptions,
): Promise<ResolvedOnnxModel> {
  for (let attempt = 0; ; attempt++) {
    const resolved = await resolveModel(source, { ...options, files: spec });
    const graph = graphs.find((g) => resolved.files[g] !== undefined);
    if (graph === undefined) {
      throw new InferkitError('model_load_failed', `${source}: expected one of ${graphs.join(', ')}`);
    }
    const graphPath = resolved.files[graph];
    const externalData = (await scanLocations(graphPath)).map((loc) => repoPathOf(source, graph, loc));
    const missing = externalData.filter((p) => resolved.files[p] === undefined);
    if (missing.length === 0) {
      return { resolved, graph, graphPath, externalData };
    }
    let extra: ResolvedModel;
    try {
      extra = await resolveModel(source, { ...options, files: { required: missing } });
    } catch (err) {
      if (isInferkitError(err) && (err.code === 'model_not_found' || err.code === 'not_cached')) {
        throw new InferkitError(err.code, `${err.message} (external data of ${graph})`, { cause: err, param: err.param });
      }
      throw err;
    }
    const moved = resolved.commit !== undefined && extra.commit !== undefined && resolved.commit !== extra.commit;
    if (!moved) {
      return { resolved: { ...resolved, files: { ...resolved.files, ...extra.files } }, graph, graphPath, externalData };
    }
    if (attempt >= 1) {
      throw new InferkitError('model_load_failed', `${source}: the repo changed twice while its graph and external data were downloaded; try again`);
    }
  }
}

/** The repo path of external data `location` of the graph at repo path `graph`; it must stay inside the repo. */
function repoPathOf(source: string, graph: string, location: string): string {
  const slash = graph.lastIndexOf('/');
  const path = slash < 0 ? location : `${graph.slice(0, slash)}/${location}`;
  try {
    assertRepoPath(path);
  } catch (cause) {
    throw new InferkitError('model_load_failed', `${source}: ${graph} keeps external data at ${JSON.stringify(location)}, which is not a path inside its repo`, { cause });
  }
  return path;
}

/** The graph's external-data locations; none for bytes that are not a graph (onnxruntime then says what is wrong). */
async function scanLocations(graphPath: string): Promise<string[]> {
  try {
    return externalDataLocationsOfFile(graphPath);
  } catch {
    return [];
  }
}
