"use client";
import { useRef } from "react";
import { useMutation, type DefaultError, type UseMutationOptions, type UseMutationResult } from "@tanstack/react-query";

/**
 * useMutation for a control a person submits with: a call while the last one is still in flight is
 * dropped, so a double-click sends one request. `disabled={isPending}` alone lets the second click of a
 * double-click through: the mutation's pending state reaches the component a tick after the first click,
 * and the second click lands before the button is drawn disabled. The guard here is set by the first click
 * itself. Disable the control with `isPending` as well, so the person sees the request is under way.
 */
export function useSingleFlightMutation<TData = unknown, TError = DefaultError, TVariables = void, TContext = unknown>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
): UseMutationResult<TData, TError, TVariables, TContext> {
  const mutation = useMutation(options);
  const inFlight = useRef(false);
  const mutate = (...args: Parameters<typeof mutation.mutateAsync>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    // The promise settles even when the mutation was reset meanwhile (its callbacks then never run); its
    // failure is the mutation's `error`.
    void mutation
      .mutateAsync(...args)
      .catch(() => undefined)
      .finally(() => {
        inFlight.current = false;
      });
  };
  return { ...mutation, mutate } as UseMutationResult<TData, TError, TVariables, TContext>;
}
